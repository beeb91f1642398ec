"""RestGPT's own prompts and prompt assembly (``-A prompts=upstream``, the default).

The template texts are read at run time from the original source files (commit d990128, MIT),
pinned by sha256 (``source.py``); nothing of them is pasted into this package. ``assembly.py``
rebuilds how the original code put the prompts together (scratchpads, selector history, doc and
schema cuts by text-davinci-003 tokens), ``reduce.py`` its OpenAPI reduction, ``roles.py`` the roles
and ``parser.py`` the response parsers, so that for the same inputs the text a model receives is
the text the original code sent.
"""
