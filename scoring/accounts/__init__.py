"""Accounts: django-allauth fitted to the app, the account page, deleting an account, mail limits."""
