"""The kinds of exercise, a file each: see :mod:`escoba_tutor.exercises.kind`."""
