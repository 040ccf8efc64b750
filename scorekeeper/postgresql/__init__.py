"""The PostgreSQL database backend: Django's own, with a cheaper health check (base.py)."""
