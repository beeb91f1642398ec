"""Generated padding that brings the TMDB sandbox to the real API's scale (see ``generate``)."""
