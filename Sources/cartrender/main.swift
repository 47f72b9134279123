print("cartrender")
