"""demo_data."""
