"""Freedom in the Galaxy missions: the Mission Phase resolver, the chit mugs and the events
deck (rules-freedom.md, parts A, B and C).

Work in progress (issue 6): the data tables come first; the game module (``GAME``) is not
registered in ``struggle_desktop.games`` until it can play a scenario.
"""
