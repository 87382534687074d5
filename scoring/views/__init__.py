"""Views, one module per area of the app; URLs in scoring/urls.py."""
