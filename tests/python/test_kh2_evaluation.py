"""KH2 interpolated motions decode to the game's evaluated pose; the format option
kh2-constraints (keyword kh2_constraints) gives the curves alone."""

import pytest

from animkit_support import SOURCE_DIR, SAMPLES, animkit, np

BAKED = SOURCE_DIR.parent / "shared" / "fixtures" / "kh2-baked"


def test_kh2_constraints_is_a_keyword_with_on_and_off():
    path = SAMPLES / "kh2_motion/wave.motion"
    on = animkit.load(path).decode().clips[0].sample()[0]
    off = animkit.load(path, kh2_constraints="off").decode().clips[0].sample()[0]
    assert on.shape == off.shape  # a motion without constraints: the same frames either way
    np.testing.assert_allclose(on, off, rtol=1e-5, atol=1e-5)
    with pytest.raises(animkit.Error, match="--kh2-constraints expects"):
        animkit.load(path, kh2_constraints="maybe")


def test_constraints_move_the_root_of_a_real_moveset():
    mset = BAKED / "M_EX660.mset"
    if not mset.exists():
        pytest.skip(f"fixture {mset} not found beside the checkout")
    skeleton = BAKED / "M_EX660.skeleton.gltf"
    on = animkit.load(mset, skeleton=skeleton).decode().clips[0]
    off = animkit.load(mset, skeleton=skeleton, kh2_constraints="off").decode().clips[0]
    also_off = animkit.load(mset, skeleton=skeleton, kh2_constraints=False).decode().clips[0]
    np.testing.assert_array_equal(off.sample()[0], also_off.sample()[0])  # a boolean is on/off
    a, b = on.sample()[0], off.sample()[0]
    assert a.shape == b.shape
    root = on.joints.index("#0")  # placed by Position and Orientation constraints in every clip
    assert np.abs(a[:, root, :3] - b[:, root, :3]).max() > 1
