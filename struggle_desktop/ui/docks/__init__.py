"""Dock panels around the map: tracks, cup, markers, stack inspector, log, dice, decisions."""
