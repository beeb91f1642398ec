"""The ShortcutsBench protocol: candidate sampling, gold cleaning, teacher-forced plans, lengths.

Pure functions over gold data; no model and no I/O. They follow the ShortcutsBench spec (``shortcutsbench.md``, section numbers cited inline).
"""
