"""The 68-square family: Parcheesi (Mundijeux and classic) and Parchís Maghreb on one engine."""
