"""One module per part of the API; each section only names its routes (Session.call does the rest)."""
