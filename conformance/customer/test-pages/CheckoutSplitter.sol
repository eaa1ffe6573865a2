// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The splitter behind the suite's own test checkout pages (conformance/customer/test-pages): it pays a payment's
// recipients (merchant, sellers, fee collector) their shares of one token in one transaction, three ways a checkout
// can take a customer's money:
//   - split():         the customer's ordinary transaction has moved the total to this contract; the service splits it;
//   - pay():           approve then pay: the customer approved this contract, and pays in a second transaction;
//   - payWithPermit(): permit then pay: the customer signed an EIP-2612 permit, and pays in one transaction.
// Transfers accept tokens that return nothing (Ethereum's USDT) as well as those that return a bool.
interface IERC20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
}

contract CheckoutSplitter {
    event Paid(bytes32 indexed ref, address indexed payer, address indexed token, uint256 total);

    function split(address token, bytes32 ref, address[] calldata recipients, uint256[] calldata amounts) external {
        uint256 total = _sum(recipients, amounts);
        for (uint256 i = 0; i < recipients.length; i++) _call(token, abi.encodeWithSelector(0xa9059cbb, recipients[i], amounts[i]));
        emit Paid(ref, address(this), token, total);
    }

    function pay(address token, bytes32 ref, address[] calldata recipients, uint256[] calldata amounts) external {
        uint256 total = _sum(recipients, amounts);
        _pull(token, recipients, amounts);
        emit Paid(ref, msg.sender, token, total);
    }

    function payWithPermit(address token, bytes32 ref, address[] calldata recipients, uint256[] calldata amounts, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        uint256 total = _sum(recipients, amounts);
        IERC20Permit(token).permit(msg.sender, address(this), total, deadline, v, r, s);
        _pull(token, recipients, amounts);
        emit Paid(ref, msg.sender, token, total);
    }

    function _pull(address token, address[] calldata recipients, uint256[] calldata amounts) private {
        for (uint256 i = 0; i < recipients.length; i++) _call(token, abi.encodeWithSelector(0x23b872dd, msg.sender, recipients[i], amounts[i]));
    }

    function _sum(address[] calldata recipients, uint256[] calldata amounts) private pure returns (uint256 total) {
        require(recipients.length == amounts.length && recipients.length > 0, "recipients and amounts differ");
        for (uint256 i = 0; i < amounts.length; i++) total += amounts[i];
    }

    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory returned) = token.call(data);
        require(ok && (returned.length == 0 || abi.decode(returned, (bool))), "token transfer failed");
    }
}
