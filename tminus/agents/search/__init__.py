"""Search agents for deterministic, perfect-information turns."""
