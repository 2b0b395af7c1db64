"""The game-agnostic core: dice, flow, log, saves, data loading and boards. Never imports Qt."""
