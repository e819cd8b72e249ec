"""One module per part of the First Blood turn (§4, Table 5)."""
