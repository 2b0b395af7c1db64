"""The Freedom in the Galaxy screen: the Mission-phase resolution view (``resolution.py``), the
forms of its prompts (``prompts.py``) and the window (``window.py``); the chit-mug and events-deck
views and the New Environs form live in their own modules, imported when first needed."""
