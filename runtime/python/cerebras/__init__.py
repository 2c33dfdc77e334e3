"""Compatibility package: Cerebras SDK import paths served by Tessera."""
