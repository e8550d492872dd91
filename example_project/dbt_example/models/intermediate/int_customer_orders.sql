select
    customer_id,
    count(*) as order_count,
    min(ordered_at) as first_order_at,
    max(ordered_at) as last_order_at,
    sum(amount) as lifetime_value
from {{ ref('int_order_payments') }}
where status <> 'returned'
group by customer_id
