"""The benchmark: a hall's worth of data, the app under gunicorn, and a load generator."""
