def torch_twin(X, Y):
    return X.T @ Y
