"""Generated padding that brings the authored Spotify catalogue to the real API's scale."""
