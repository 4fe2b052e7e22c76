"""Mau Mau scenario tests, golden traces and their helpers."""
