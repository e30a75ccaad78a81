# The add-on's modules that call Blender (bpy, mathutils): see the add-on's __init__.py.
