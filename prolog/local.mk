# prolog/: library (added by its issue)
