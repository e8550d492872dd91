select
    p.order_id,
    p.customer_id,
    c.country,
    p.ordered_at,
    p.status,
    p.amount,
    p.payment_count,
    p.amount - p.voucher_amount as net_amount
from {{ ref('int_order_payments') }} as p
join {{ ref('stg_customers') }} as c on p.customer_id = c.customer_id
