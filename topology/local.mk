# topology/: library (added by its issue)
