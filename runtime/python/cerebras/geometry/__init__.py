"""`cerebras.geometry` as SdkLayout scripts import it (Tessera)."""
