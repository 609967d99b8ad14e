# select/: library (added by its issue)
