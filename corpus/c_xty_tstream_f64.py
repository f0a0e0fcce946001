def torch_twin(A, B):
    return A.mT @ B
