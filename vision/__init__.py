"""trickvision: read the rows of played cards at a card table and reconstruct the play."""

__version__ = "0.1.0"
