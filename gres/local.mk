# gres/: library (added by its issue)
