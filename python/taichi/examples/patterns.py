"""Patterns Taichi's example programs draw with (taichi.examples.patterns)."""
import taichi as ti


@ti.func
def taichi_logo(pos: ti.template(), scale: float = 1 / 1.11):
    """The Taichi logo at `pos` in the unit square: 0 on its dark parts, 1 on
    the light ones and around it. The logo is a yin-yang in a ring: outside
    the ring is light, the ring dark; each lobe is a disc of radius 0.25 about
    (0.5, 0.25) (light) or (0.5, 0.75) (dark) holding a dot of the other
    colour; the rest of the disc is dark on the left half, light on the right.
    `scale` shrinks the logo about the square's centre. An i32, as the regions
    are tested in that order: the first that holds `pos` gives its colour."""
    p = (pos - 0.5) / scale + 0.5
    centre = (p - 0.5).norm_sqr()
    low = (p - ti.Vector([0.5, 0.25])).norm_sqr()
    high = (p - ti.Vector([0.5, 0.75])).norm_sqr()
    light = 0
    if centre > 0.52**2:  # around the logo
        light = 1
    elif centre > 0.495**2:  # the ring
        light = 0
    elif low <= 0.08**2:  # the light lobe's dark dot
        light = 0
    elif high <= 0.08**2:  # the dark lobe's light dot
        light = 1
    elif low <= 0.25**2:
        light = 1
    elif high <= 0.25**2:
        light = 0
    elif p[0] >= 0.5:
        light = 1
    return light
