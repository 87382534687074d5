"""Pages across rooms, on top of them all: home, the rules, the app's manifest and service worker,
the health check."""
