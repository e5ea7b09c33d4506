"""End-to-end model tests (see test_models.py)."""
