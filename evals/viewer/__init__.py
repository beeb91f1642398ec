"""``restgraph view``: the local trace viewer (``data`` builds its JSON, ``server`` serves or exports it)."""
