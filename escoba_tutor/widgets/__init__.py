"""Teaching widgets for Jupyter and Voilà, built on the engine."""
