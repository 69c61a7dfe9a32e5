"""Run by pvpython (ParaView's Python), not by pytest: opens the shapes sidecars of a rubble run
(RUN.spheres.xdmf, RUN.hulls.xdmf, RUN.walls.xdmf) the way docs/output-format.md tells users
to, goes to the last time step, and renders them together: the spheres as sphere glyphs at
their radii, the hulls and walls as surfaces.

  pvpython paraview_shapes.py OUT.png RUN.spheres.xdmf [RUN.hulls.xdmf ...]

Prints one JSON line before it renders: for each file, the time steps the reader found and,
at the last one, its number of points, of cells, of triangle cells and its point and cell
arrays, as ParaView read them.
"""

import json
import sys

from paraview import servermanager
from paraview.simple import (GetActiveCamera, GetActiveViewOrCreate, Glyph, ResetCamera,
                             SaveScreenshot, Show, Xdmf3ReaderT)
from vtkmodules.vtkCommonDataModel import VTK_TRIANGLE


def arrays(fields):
    return sorted(fields.GetArrayName(i) for i in range(fields.GetNumberOfArrays()))


def main(png: str, files: list[str]) -> None:
    seen = {}
    readers = []
    for xdmf in files:
        reader = Xdmf3ReaderT(FileName=[xdmf])
        times = list(reader.TimestepValues)
        reader.UpdatePipeline(times[-1])
        data = servermanager.Fetch(reader)
        triangles = sum(1 for c in range(data.GetNumberOfCells())
                        if data.GetCellType(c) == VTK_TRIANGLE)
        seen[xdmf] = {"times": times, "points": data.GetNumberOfPoints(),
                      "cells": data.GetNumberOfCells(), "triangles": triangles,
                      "point_arrays": arrays(data.GetPointData()),
                      "cell_arrays": arrays(data.GetCellData())}
        readers.append((xdmf, reader, times[-1]))
    # Printed before rendering, which needs a display on some builds and may fail.
    print(json.dumps(seen), flush=True)
    view = GetActiveViewOrCreate("RenderView")
    view.OrientationAxesVisibility = 0
    view.ViewTime = max(last for _, _, last in readers)
    for xdmf, reader, _ in readers:
        if xdmf.endswith(".spheres.xdmf"):
            # A sphere glyph of radius 0.5 scaled by 2 x radius: each sphere at its own size.
            glyph = Glyph(Input=reader, GlyphType="Sphere")
            glyph.ScaleArray = ["POINTS", "radius"]
            glyph.ScaleFactor = 2.0
            glyph.GlyphMode = "All Points"
            Show(glyph, view)
        else:
            shown = Show(reader, view)
            if xdmf.endswith(".walls.xdmf"):
                shown.Opacity = 0.3  # the bodies inside a box show through its faces
    camera = GetActiveCamera()  # from above and aside: a floor is not seen edge on
    camera.Elevation(35)
    camera.Azimuth(30)
    ResetCamera(view)
    SaveScreenshot(png, view, ImageResolution=[400, 400])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
