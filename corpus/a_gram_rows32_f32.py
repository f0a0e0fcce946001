def torch_twin(A):
    return A @ A.T
