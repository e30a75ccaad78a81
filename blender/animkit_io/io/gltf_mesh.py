# glTF primitives' topology for the mesh builder (mesh_build.py): the triangles and edges
# of a primitive's indices by its mode, and a vertex's influences. Pure Python: no bpy.
# The primitives themselves come from the import file (import_data.py: the library's
# GltfSceneView read the glTF).


def triangles(mode, indices, degenerate=False):
    """The triangles (index triples, degenerate ones dropped unless `degenerate`) of a
    triangle primitive."""
    out = []
    if mode == 4:
        out = [tuple(indices[j:j + 3]) for j in range(0, len(indices) - 2, 3)]
    elif mode == 5:
        for j in range(len(indices) - 2):
            a, b, c = indices[j], indices[j + 1], indices[j + 2]
            out.append((a, b, c) if j % 2 == 0 else (b, a, c))
    elif mode == 6:
        out = [(indices[0], indices[j], indices[j + 1]) for j in range(1, len(indices) - 1)]
    return out if degenerate else [t for t in out if len(set(t)) == 3]


def lines(mode, indices):
    """The edges (index pairs) of a line primitive, degenerate ones dropped."""
    out = []
    if mode == 1:
        out = [(indices[j], indices[j + 1]) for j in range(0, len(indices) - 1, 2)]
    elif mode in (2, 3):
        out = [(indices[j], indices[j + 1]) for j in range(len(indices) - 1)]
        if mode == 2 and len(indices) > 2:
            out.append((indices[-1], indices[0]))
    return [e for e in out if e[0] != e[1]]


def influences(prim, vertex):
    """[(joint node, weight)] of one vertex, zero weights left out."""
    if prim.joints is None or prim.weights is None:
        return []
    return [(j, w) for j, w in zip(prim.joints[vertex], prim.weights[vertex]) if w > 0.0]
