"""The one error the oracles share."""


class UnknownRoleError(RuntimeError):
    """A gold-reading oracle was asked by a role (prompt) it does not know how to play.

    Answering such a prompt from the gold would make a miswired agent (one that never calls the
    API) score as a success, so the oracle refuses; the episode fails with this error."""
