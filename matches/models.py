"""Matches played through the engine (online or simulated). See the online-play issue."""
