# The add-on's pure Python modules (no bpy): see the add-on's __init__.py.
