"""Circles: who may see and change what (the Scope), circles, members and roles, invites."""
