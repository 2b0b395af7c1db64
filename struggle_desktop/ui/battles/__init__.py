"""The Battles for the Galactic Empire screen: the table scene and the window around it."""
