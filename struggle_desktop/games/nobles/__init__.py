"""Noble Houses: rival houses fight for a neutral sector on a 10 x 10 hex map (rules-nobles.md)."""
