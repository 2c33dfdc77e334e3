"""`cerebras.sdk.debug`: the SDK's tools for looking into PE memory after a
run (debug_util), served by Tessera's host runtime."""
