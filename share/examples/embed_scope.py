#!/usr/bin/python3
"""embed_scope.py - two live recorder graphs in a GTK 4 window, from Python.

    GI_TYPELIB_PATH=PREFIX/lib/girepository-1.0 LD_LIBRARY_PATH=PREFIX/lib \\
        python3 embed_scope.py [SEGMENT [CHANNELS_LEFT [CHANNELS_RIGHT]]]

The same window as embed_scope.c: a label saying where the segment stands,
two RecorderScope.Graph widgets side by side, a Pause button and a span
selector. Needs PyGObject (Debian: python3-gi, gir1.2-gtk-4.0).

For tests, EMBED_SCOPE_SCRIPT=FILE makes it read one command a line from
FILE as it grows: "pause", "live", "span SECONDS", "quit".
"""
import os
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("RecorderScope", "1.0")
from gi.repository import Gio, GLib, Gtk, RecorderScope  # noqa: E402


def argument(index):
    """Command-line argument 'index', None when absent or empty."""
    if len(sys.argv) > index and sys.argv[index]:
        return sys.argv[index]
    return None


class EmbedWindow(Gtk.ApplicationWindow):
    """Two graphs beside a label, a button and a spin button."""

    def __init__(self, application):
        super().__init__(application=application, title="embed_scope.py")
        self.set_default_size(760, 360)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6,
                      margin_start=8, margin_end=8, margin_top=8,
                      margin_bottom=8)
        self.set_child(box)
        self.status = Gtk.Label(label="starting", xalign=0)
        box.append(self.status)

        row = Gtk.Box(spacing=6, homogeneous=True, vexpand=True)
        box.append(row)
        self.graphs = []
        for channels in (argument(2), argument(3)):
            graph = RecorderScope.Graph.new(argument(1), channels)
            graph.connect("notify::paused", self.on_paused_changed)
            graph.connect("notify::span", self.on_span_notified)
            row.append(graph)
            self.graphs.append(graph)
        self.graphs[0].connect("notify::message", self.on_message)
        self.graphs[0].connect("source-attached", self.on_attached)
        self.graphs[0].connect("source-lost", self.on_lost)

        controls = Gtk.Box(spacing=6)
        box.append(controls)
        self.pause = Gtk.ToggleButton(label="Pause")
        self.pause.connect("toggled", self.on_pause_toggled)
        controls.append(self.pause)
        controls.append(Gtk.Label(label="Span (s)"))
        self.span = Gtk.SpinButton.new_with_range(0.001, 600, 0.5)
        self.span.set_digits(3)
        self.span.set_value(self.graphs[0].props.span)
        self.span.connect("value-changed", self.on_span_changed)
        controls.append(self.span)

    def on_pause_toggled(self, button):
        for graph in self.graphs:
            graph.props.paused = button.get_active()

    def on_span_changed(self, spin):
        for graph in self.graphs:
            graph.props.span = spin.get_value()

    def on_paused_changed(self, graph, _pspec):
        # A zoom with the mouse pauses a graph: the button follows.
        if graph.props.paused and not self.pause.get_active():
            self.pause.set_active(True)

    def on_span_notified(self, graph, _pspec):
        # A zoom with the mouse changes the span: the selector follows.
        if graph.props.span > 0:
            self.span.set_value(graph.props.span)

    def on_message(self, graph, _pspec):
        self.status.set_text(graph.props.message)

    @staticmethod
    def on_attached(_graph, name):
        print("attached:", name, flush=True)

    @staticmethod
    def on_lost(_graph, message):
        print("lost:", message, flush=True)


def follow_script(window, script):
    """EMBED_SCOPE_SCRIPT: what a test would otherwise click."""
    for line in iter(script.readline, ""):
        command = line.strip()
        if command == "pause":
            window.pause.set_active(True)
        elif command == "live":
            window.pause.set_active(False)
        elif command.startswith("span "):
            for graph in window.graphs:
                graph.set_span(float(command.split()[1]))
        elif command == "quit":
            window.destroy()
        else:
            print("embed_scope.py: unknown command", repr(command),
                  file=sys.stderr)
        print("did:", command, flush=True)
        if command == "quit":
            return False
    return True


def on_activate(application):
    window = EmbedWindow(application)
    script = os.environ.get("EMBED_SCOPE_SCRIPT")
    if script:
        handle = open(script, encoding="utf-8")
        GLib.timeout_add(50, follow_script, window, handle)
    window.present()


def main():
    application = Gtk.Application(application_id="org.recorder.EmbedScopePy",
                                  flags=Gio.ApplicationFlags.NON_UNIQUE)
    application.connect("activate", on_activate)
    # Our arguments are not GTK's.
    return application.run(sys.argv[:1])


if __name__ == "__main__":
    sys.exit(main())
