"""The measurement engine: preset + settings → fio runs → results. Knows nothing of Textual.

Each name is imported from the module that defines it: the app imports :mod:`.plan` or
:mod:`.errors` at start, which must not pull in the runner (psutil, the system readers)
before the first frame.
"""
