"""One scorer module per benchmark. Scorers read traces and gold data only, never a model."""
