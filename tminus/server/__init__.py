"""Play in the browser: the FastAPI server, its game service, storage and fair randomness.

Needs the ``web`` extra (``pip install "tminus[web]"``).
"""
