"""Lecker Mammut! scenario tests, golden traces and their helpers."""
