def torch_twin(A, x):
    return A @ x
