"""Run by pvpython (ParaView's Python), not by pytest: opens a rubble XDMF sidecar the way
docs/output-format.md tells users to, goes to the last time step, and renders the bodies as
spheres (Glyph filter scaled by radius) to a PNG.

  pvpython paraview_render.py RUN.xdmf OUT.png

Prints one JSON line before it renders: the time steps the reader found, and the number of
points and the point arrays (name: components) at the last one, as the reader produced them.
"""

import json
import sys

from paraview import servermanager
from paraview.simple import (GetActiveViewOrCreate, GetAnimationScene, Glyph, ResetCamera,
                             SaveScreenshot, Show, Xdmf3ReaderT)


def main(xdmf: str, png: str) -> None:
    reader = Xdmf3ReaderT(FileName=[xdmf])
    times = list(reader.TimestepValues)
    scene = GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = times[-1]
    reader.UpdatePipeline(times[-1])
    data = servermanager.Fetch(reader)
    arrays = data.GetPointData()
    # Printed before rendering, which needs a display on some builds and may fail.
    print(json.dumps({
        "times": times,
        "points": data.GetNumberOfPoints(),
        "arrays": {arrays.GetArrayName(i): arrays.GetArray(i).GetNumberOfComponents()
                   for i in range(arrays.GetNumberOfArrays())},
    }), flush=True)
    # A sphere glyph of radius 0.5 scaled by 2 x radius: each body at its own size.
    glyph = Glyph(Input=reader, GlyphType="Sphere")
    glyph.ScaleArray = ["POINTS", "radius"]
    glyph.ScaleFactor = 2.0
    glyph.GlyphMode = "All Points"
    view = GetActiveViewOrCreate("RenderView")
    view.OrientationAxesVisibility = 0  # only the bodies differ from the background
    Show(glyph, view)
    ResetCamera(view)
    SaveScreenshot(png, view, ImageResolution=[400, 400])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
