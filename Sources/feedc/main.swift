print("feedc")
