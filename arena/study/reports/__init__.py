"""Reports: ``arena report``'s page and plots, the model-changes page (``arena model-effects``), and what every
written page shares: names escaped for the page, plots and terminal, files staged and put in place together, and
matplotlib figures (no code here)."""
