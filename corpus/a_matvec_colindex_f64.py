def torch_twin(A, x):
    return x @ A
